// Child process of saveVaultEntry.process.test.ts: save `count` pairings `<prefix>-<i>` one after
// the other, printing `saved <i>` after each save has returned.
import { saveVaultEntry } from '../save-vault-entry.ts';
import { sampleEntry } from './sample-entry.ts';

const [file, prefix, count] = process.argv.slice(2);
if (!file || !prefix || !count) throw new Error('usage: saveLoop.ts <vault file> <prefix> <count>');
for (let i = 1; i <= Number(count); i++) {
  await saveVaultEntry(file, sampleEntry(`${prefix}-${i}`));
  process.stdout.write(`saved ${i}\n`);
}
