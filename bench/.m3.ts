import { inputVariables } from '../src/engine/protocols/http/input.ts';
const b = inputVariables('http://127.0.0.1:8080');
const N = 20000;
const time = (name: string, fn: () => void) => {
  const s = performance.now();
  for (let i = 0; i < N; i++) fn();
  console.log(name, (((performance.now() - s) * 1000) / N).toFixed(2), 'µs');
};
const data: Record<string, unknown> = { a: 1, body: 'x', status_code: 200, 'template-id': 'b', content_type: 'text' };
for (let k = 0; k < 2; k++) {
  time('spread', () => {
    ({ ...b, ...data });
  });
  time('assign', () => {
    Object.assign({}, b, data);
  });
  time('forin', () => {
    const o: Record<string, unknown> = {};
    for (const x in b) o[x] = (b as any)[x];
    for (const x in data) o[x] = data[x];
  });
  time('map', () => {
    const o = new Map<string, unknown>();
    for (const x in b) o.set(x, (b as any)[x]);
    for (const x in data) o.set(x, data[x]);
  });
}
