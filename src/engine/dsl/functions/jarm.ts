// JARM TLS fingerprint: placeholder until the full probe set is written.
export async function jarmHash(host: string, port: number): Promise<string> {
  throw new Error(`jarm fingerprinting of ${host}:${port} is not implemented yet`);
}
