// Loads every module that adds a step to the monitor loop (loop.ts); imported by the serve process.
import './loop.ts';
