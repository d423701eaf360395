#!/usr/bin/env node
/**
 * Adds to package-lock.json the platform-specific optional packages that npm left out because the
 * registry this project installs from does not carry them for every platform (e.g. litesvm's macOS
 * builds, rollup's Windows builds). `npm ci` insists that every optional dependency a package
 * declares has a lock entry; the entries added here carry os/cpu (and libc), so npm skips them on
 * other platforms without fetching anything. Run after changing dependencies: `npm run lock:complete`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORM =
  /-(darwin|linux|win32|android|freebsd|openbsd|openharmony|sunos|aix)-(x64|arm64|arm|ia32|loong64|ppc64|riscv64|s390x|mips64el)(?:-(gnu|musl|msvc|gnueabihf|musleabihf|eabi))?$/;

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;
let added = 0;

for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const match = PLATFORM.exec(name);
    if (!match) continue;
    const parent = path === '' ? '' : `${path}/`;
    const key = `${parent}node_modules/${name}`;
    // npm resolves from the nearest node_modules: a hoisted copy counts.
    if (packages[key] || packages[`node_modules/${name}`]) continue;
    const [, os, cpu, abi] = match;
    const libc =
      abi === 'gnu' || abi === 'gnueabihf'
        ? 'glibc'
        : abi === 'musl' || abi === 'musleabihf'
          ? 'musl'
          : undefined;
    packages[`node_modules/${name}`] = {
      version: version.replace(/^[\^~=]/, ''),
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      os: [os],
    };
    added++;
  }
}

// Keep npm's own key order (sorted) so diffs stay small.
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform-specific optional entries added`);
