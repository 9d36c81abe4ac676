// One result line, with nuclei's JSON field names.
import type { TemplateInfo } from '../template/types.ts';

export interface ResultEvent {
  'template-id': string;
  'template-path': string;
  info: TemplateInfo;
  type: string;
  host: string;
  'matched-at': string;
  'matcher-name'?: string;
  'extractor-name'?: string;
  'extracted-results'?: string[];
  ip?: string;
  timestamp: string;
  request?: string;
  response?: string;
  'curl-command'?: string;
  'matcher-status': boolean;
  /** The out-of-band interaction that proved the result (interactsh's fields), for interactsh matchers. */
  interaction?: {
    protocol: string;
    'unique-id': string;
    'full-id': string;
    'q-type'?: string;
    'raw-request'?: string;
    'raw-response'?: string;
    'smtp-from'?: string;
    'remote-address': string;
    timestamp: string;
  };
  /** Only on failure events (matcher-status on). */
  error?: string;
}
