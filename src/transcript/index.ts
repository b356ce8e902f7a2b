/**
 * The run's transcript (transcript.jsonl.gz): its line format, the worker's recorder, the engine's
 * assembly and merge, and re-judging a run offline from it (`rejudge`).
 */
export * from './format.ts';
export { TranscriptRecorder, recordedFinding } from './recorder.ts';
export {
  type Header,
  type Transcript,
  WHOLE_RUN_CHECK,
  WHOLE_RUN_TEST,
  assembleTranscript,
  mergeTranscripts,
  readTranscript,
  testLine,
  wholeRunCheckEvent,
  writeTranscriptFile,
} from './assemble.ts';
export * from './rejudge.ts';
