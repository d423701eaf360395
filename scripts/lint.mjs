// npm run lint: every static check, in two lanes that run side by side. Each check is one process on
// one core (tsc, eslint, prettier ...), so two lanes keep both cores of a small CI machine busy and
// the whole takes about half as long as one after the other. A lane stops at its first failure; the
// run fails when either lane does. Each check's output is printed when it ends, under its name.
import { spawn } from 'node:child_process';

const LANES = [
  [
    'tsc -p .',
    'eslint .',
    'depcruise server contract sandbox --config .dependency-cruiser.cjs',
    'redocly lint openapi.json --format=summary',
    'npm run lint:api',
  ],
  ['tsc -p server/checkout/client', 'tsc -p dashboard', 'tsc -p test/e2e', 'prettier --check .'],
];

/** Runs one check with node_modules/.bin on the path, its output kept; resolves to its exit code. */
function check(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(`\n> ${command}\n${Buffer.concat(output).toString()}`);
      resolve(code ?? 1);
    });
  });
}

async function lane(commands) {
  for (const command of commands) {
    const code = await check(command);
    if (code !== 0) return `${command} failed (exit ${code})`;
  }
  return null;
}

const failures = (await Promise.all(LANES.map(lane))).filter(Boolean);
for (const failure of failures) console.error(`lint: ${failure}`);
process.exit(failures.length === 0 ? 0 : 1);
