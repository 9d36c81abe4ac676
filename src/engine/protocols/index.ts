// Registers every protocol this engine runs (import for its effect).
import './registry.ts';
