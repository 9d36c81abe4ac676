// Field types that several protocol blocks share.
import type { Shape, Spec } from './shape.ts';
import { matchersSpec } from './operator-specs.ts';

export const ATTACK: Spec = { enum: ['batteringram', 'pitchfork', 'clusterbomb'], fold: 'lower' };

const FUZZ_RULE: Shape = {
  fields: {
    type: { enum: ['replace', 'prefix', 'postfix', 'infix', 'replace-regex'] },
    part: { enum: ['query', 'header', 'path', 'body', 'cookie', 'request'] },
    parts: 'list',
    mode: { enum: ['single', 'multiple'] },
    keys: 'list',
    'keys-regex': 'list',
    values: 'list',
    fuzz: 'any', // a list of values or a map of name -> values
    'replace-regex': 'string',
  },
};

export const FUZZING: Spec = { listOf: FUZZ_RULE };
export const PRE_CONDITION: Spec = matchersSpec;
