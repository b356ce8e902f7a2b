// Child process of saveVaultEntry.process.test.ts: save one pairing, then die at once without any
// cleanup (no exit handlers, no flushing), as a crash or `kill -9` would.
import { saveVaultEntry } from '../save-vault-entry.ts';
import { sampleEntry } from './sample-entry.ts';

const [file, id] = process.argv.slice(2);
if (!file || !id) throw new Error('usage: saveThenKill.ts <vault file> <pairing id>');
await saveVaultEntry(file, sampleEntry(id));
process.kill(process.pid, 'SIGKILL');
