// Schemas the team routes share.
import { Type } from '@sinclair/typebox';

export const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' });
