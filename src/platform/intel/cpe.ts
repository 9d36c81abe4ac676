// CPE 2.3 formatted strings: cpe:2.3:part:vendor:product:version:... (fields may contain "\:" escapes).

export interface CpeParts {
  part: string; // a application, o operating system, h hardware
  vendor: string;
  product: string;
}

export function cpeParts(cpe: string): CpeParts | undefined {
  if (!cpe.startsWith('cpe:2.3:')) return undefined;
  const fields = cpe.slice(8).split(/(?<!\\):/);
  const [part, vendor, product] = fields;
  if (!part || !vendor || !product || vendor === '*' || product === '*') return undefined;
  return { part, vendor: unescape(vendor), product: unescape(product) };
}

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

export const CPE_PART_TYPE: Record<string, string> = { a: 'application', o: 'operating_system', h: 'hardware' };
