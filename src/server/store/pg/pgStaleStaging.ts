import { ADVISORY_LOCK_SPACE, type PgDatabase } from './pgDatabase'

/**
 * Drops staging tables (`ds_<id>__staging`) that no running import owns: an import holds its
 * dataset's advisory lock (`dataset:<id>`) for its whole transaction, so a table whose lock is
 * free is stale (a committed leftover: an interrupted manual load, an earlier version). A live
 * import on another server keeps its table: the lock is taken only with `pg_try_advisory_xact_lock`
 * and the table is dropped while holding it. Answers the tables dropped.
 */
export async function dropStalePgStaging(db: PgDatabase): Promise<string[]> {
  const tables = await db.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables
     WHERE schemaname = current_schema() AND tablename ~ '^ds_[a-z][a-z0-9_]*__staging$'`,
  )
  const dropped: string[] = []
  for (const { name } of tables) {
    const datasetId = name.slice('ds_'.length, -'__staging'.length)
    await db.tx(async () => {
      const got = await db.one<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS ok', [
        ADVISORY_LOCK_SPACE,
        `dataset:${datasetId}`,
      ])
      if (!got?.ok) return
      await db.run(`DROP TABLE IF EXISTS ${name}`)
      dropped.push(name)
    })
  }
  return dropped
}
