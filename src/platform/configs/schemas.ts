// TypeBox schemas of the named configuration endpoints (/v1/scans/config). What each config type's YAML
// may hold is in documents.ts; ranges are checked by the service so that each problem names its field.
import { Type } from '@sinclair/typebox';

const Str = Type.String({ maxLength: 4096 });

export const ConfigIdParams = Type.Object({ config_id: Type.String({ minLength: 1, maxLength: 100 }) });

export const Message = Type.Object({ message: Type.String() });

const ConfigType = Type.String({
  maxLength: 40,
  description: 'scan, reporting, template, alerting, cloudlist, subfinder, remediation, vuln_score',
});

export const ConfigListQuery = Type.Object({
  type: Type.Optional(ConfigType),
  search: Type.Optional(Type.String({ maxLength: 500 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});

export const ConfigRecord = Type.Object({
  id: Str,
  name: Str,
  config_type: Str,
  config: Type.String({ description: 'YAML text; empty for callers who may not manage configs' }),
  provider_name: Str,
  events: Type.Optional(
    Type.Array(Type.String(), {
      description: 'alerting configs: the events they send (shown to every role: names, not settings)',
    }),
  ),
  read_only: Type.Boolean(),
  global: Type.Boolean(),
  created_at: Str,
  updated_at: Str,
});

const ConfigText = Type.String({ maxLength: 1024 * 1024, description: 'YAML text' });

export const CreateConfigBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    config_type: Type.Optional(ConfigType),
    config: ConfigText,
    global: Type.Optional(
      Type.Boolean({ description: 'applies to every scan of the team unless the scan sets disable_global_*' }),
    ),
    read_only: Type.Optional(Type.Boolean({ description: 'no later change or delete through the API' })),
  },
  { additionalProperties: false },
);

export const PatchConfigBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    config: Type.Optional(ConfigText),
    global: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ConfigCreated = Type.Object({ message: Type.String(), id: Type.String() });
