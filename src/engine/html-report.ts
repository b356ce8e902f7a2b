/**
 * The Allure HTML report of a reports folder, for a run and for merged shards alike. The other
 * reports are written by then: a failure here is said on stderr and returned, and the caller counts
 * it as an error of the toolkit (exit 2).
 */
import { join } from 'node:path';
import { isToolkitError } from '../core/index.ts';
import { REPORT_FILES, generateAllureHtml } from '../report/index.ts';

/** Generates `<reportsDir>/allure-report` from `allureResults`, carrying the folder's history. */
export async function writeHtmlReport(reportsDir: string, allureResults: string, stderr: (s: string) => void): Promise<{ allureReport?: string; htmlError?: string }> {
  const allureReport = join(reportsDir, REPORT_FILES.allureReport);
  try {
    await generateAllureHtml({ resultsDir: allureResults, outputDir: allureReport, historyPath: join(reportsDir, REPORT_FILES.allureHistory) });
    return { allureReport };
  } catch (e) {
    const htmlError = isToolkitError(e) ? e.toUserMessage() : String(e);
    stderr(`${htmlError}\n`);
    return { htmlError };
  }
}
