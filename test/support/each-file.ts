// Runs before each test file (vitest setupFiles), in the worker that runs it.
import { forgetFileScope } from './file-scope';

forgetFileScope();
