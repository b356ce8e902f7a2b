import { describe, expect, it } from 'vitest';
import { ServiceSteps } from './service-steps.ts';

describe('ServiceSteps', () => {
  it("keeps the slowest of the convergences' quickest steps: a cancel's few milliseconds do not set the pace", () => {
    const steps = new ServiceSteps();
    expect(steps.stepMs).toBeUndefined();
    steps.saw(undefined);
    steps.saw(0);
    expect(steps.stepMs).toBeUndefined();
    steps.saw(8); // a cancel: INITIATED, then CANCELED at once
    steps.saw(97);
    steps.saw(12);
    expect(steps.stepMs).toBe(97);
    steps.saw(104);
    expect(steps.stepMs).toBe(104);
  });
});
