// The engine parts this protocol uses from its neighbours, in one place.
export { compile, render, unresolvedVariables, unsupportedCalls } from '../../dsl/index.ts';
export { runOperators } from '../../operators/index.ts';
export { takePendingWait } from '../../dsl/functions/time.ts';
export { isPendingIO, fulfillPendingIO } from '../../dsl/functions/network.ts';
