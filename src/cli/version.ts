// The version `vigil --version` prints (both entry points: index.ts and scan-main.ts).
export const VERSION = '0.1.0';
