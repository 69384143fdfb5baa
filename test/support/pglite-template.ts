import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

// PGlite makes a new cluster with initdb, which takes five to six seconds of CPU; starting from a copy of one made
// before takes one. The suite starts dozens of databases, so one fresh (unmigrated) cluster is made per machine and
// PGlite version, kept both as a data directory (for servers started on a DATA_DIR) and as a tarball (for in-memory
// databases), and every test database starts from it.

const repoRoot = path.resolve(import.meta.dirname, '../..');
// The package does not export its package.json, so the version is read from the installed file.
const pgliteVersion = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string }).version;
const templateRoot = path.join(os.tmpdir(), `card-grader-pglite-template-${pgliteVersion}`);
const templateDir = path.join(templateRoot, 'pg');
const templateTarball = path.join(templateRoot, 'pg.tar');

let made: Promise<void> | undefined;

async function makeTemplate(): Promise<void> {
  if (fs.existsSync(templateTarball)) return;
  // Test files run side by side: each makes its own and the first rename wins.
  const scratch = fs.mkdtempSync(`${templateRoot}-making-`);
  const pglite = await PGlite.create({ dataDir: path.join(scratch, 'pg') });
  const tarball = await pglite.dumpDataDir('none');
  await pglite.close();
  fs.writeFileSync(path.join(scratch, 'pg.tar'), Buffer.from(await tarball.arrayBuffer()));
  try {
    fs.renameSync(scratch, templateRoot);
  } catch {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function template(): Promise<void> {
  made ??= makeTemplate();
  return made;
}

/** A fresh cluster to load an in-memory PGlite from (`loadDataDir`). */
export async function freshClusterTarball(): Promise<Blob> {
  await template();
  return new Blob([fs.readFileSync(templateTarball)]);
}

/** Puts a fresh cluster where a server started with this DATA_DIR looks for its PGlite files. */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  await template();
  fs.cpSync(templateDir, path.join(dataDir, 'pg'), { recursive: true });
}
