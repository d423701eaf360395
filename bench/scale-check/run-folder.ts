import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Cleanup } from '../lib/cleanup';
import { childGroups, startGuard, type Child, type RunRecord } from './processes';

const TEMP_PREFIX = 'stablepay-scale-';

/** Where the logs are, and whether to keep them (a failed run does). */
export type RunState = { dir?: string; keepLogs: boolean };

/** The run's folder (logs, and the record the guard reads) and what it records. */
export type RunFolder = {
  dir: string;
  recordDatabase(name: string): void;
  /** A child's process group, to kill if the run is. */
  remember(pgid: number): void;
  /** A child whose whole group is gone: nothing left to kill, and its id may be reused. */
  forget(child: Child): void;
};

/** The folder, its record and the guard that reads it; removed at the end unless its logs are kept. */
export function createRunFolder(cleanup: Cleanup, serverUrl: string, state: RunState): RunFolder {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
  const recordFile = path.join(dir, 'run.json');
  const record: RunRecord = { groups: [] };
  const saveRecord = () => fs.writeFileSync(recordFile, JSON.stringify(record));
  saveRecord();
  startGuard(recordFile, serverUrl);
  state.dir = dir;
  cleanup.add('run folder', async () => {
    // Kept for its logs, with nothing left for the guard to undo.
    if (state.keepLogs) fs.writeFileSync(recordFile, JSON.stringify({ groups: [] }));
    else fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  });
  return {
    dir,
    recordDatabase(name) {
      record.database = name;
      saveRecord();
    },
    remember(pgid) {
      childGroups.add(pgid);
      record.groups.push(pgid);
      saveRecord();
    },
    forget(child) {
      childGroups.delete(child.proc.pid ?? -1);
      record.groups = record.groups.filter((pgid) => pgid !== child.proc.pid);
      saveRecord();
    },
  };
}
