import { Zip, ZipDeflate } from 'fflate';
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
const base = '/work/shared/data/vuln/cve5';
const man = JSON.parse(readFileSync(base + '/MANIFEST.json', 'utf8'));
const out = createWriteStream(process.argv[2]);
const zip = new Zip((err, chunk, final) => { if (err) throw err; out.write(chunk); if (final) out.end(); });
for (let k = 0; k < 40; k++) for (const m of man) { const e = new ZipDeflate(`c/${k}/${m.path}`, { level: 1 }); zip.add(e); e.push(readFileSync(base + '/' + m.path), true); }
zip.end(); await once(out, 'finish');
