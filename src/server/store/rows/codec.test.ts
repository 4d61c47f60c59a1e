import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { insertInto, pgCodec, sqliteCodec, updateWhere, upsertInto } from './codec'

describe('column codecs', () => {
  it('writes SQLite placeholders and PostgreSQL numbered ones', () => {
    expect(insertInto(sqliteCodec, 't', ['a', 'b', 'c'])).toBe('INSERT INTO t (a, b, c) VALUES (?,?,?)')
    expect(insertInto(pgCodec, 't', ['a', 'b', 'c'])).toBe('INSERT INTO t (a, b, c) VALUES ($1,$2,$3)')
  })

  it('updates by key with the key last in both dialects', () => {
    const db = new Database(':memory:')
    db.exec(
      "CREATE TABLE t (k TEXT PRIMARY KEY, a TEXT, b INTEGER); INSERT INTO t VALUES ('x', 'one', 1), ('y', 'one', 1)",
    )
    db.prepare(updateWhere(sqliteCodec, 't', ['a', 'b'], 'k')).run('two', 2, 'x')
    expect(db.prepare('SELECT * FROM t ORDER BY k').all()).toEqual([
      { k: 'x', a: 'two', b: 2 },
      { k: 'y', a: 'one', b: 1 },
    ])
    expect(updateWhere(pgCodec, 't', ['a', 'b'], 'k')).toBe('UPDATE t SET a = $1, b = $2 WHERE k = $3')
    db.close()
  })

  it('upserts the same way in both dialects, replacing every column but the key', () => {
    const db = new Database(':memory:')
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, a TEXT, b INTEGER)')
    const upsert = db.prepare(upsertInto(sqliteCodec, 't', ['k', 'a', 'b'], 'k'))
    upsert.run('x', 'one', 1)
    upsert.run('x', 'two', 2)
    expect(db.prepare('SELECT * FROM t').all()).toEqual([{ k: 'x', a: 'two', b: 2 }])
    expect(upsertInto(pgCodec, 't', ['k', 'a'], 'k')).toBe(
      'INSERT INTO t (k, a) VALUES ($1,$2) ON CONFLICT (k) DO UPDATE SET a = excluded.a',
    )
    db.close()
  })

  it('round-trips JSON and booleans through a real SQLite table', () => {
    const db = new Database(':memory:')
    db.exec('CREATE TABLE t (j TEXT, b INTEGER)')
    const value = { roles: ['admin'], n: 1, nested: { s: 'x\u0000y' } }
    db.prepare(insertInto(sqliteCodec, 't', ['j', 'b'])).run(
      sqliteCodec.jsonParam(value),
      sqliteCodec.boolParam(true),
    )
    const row = db.prepare('SELECT j, b FROM t').get() as { j: unknown; b: unknown }
    expect(sqliteCodec.json(row.j)).toEqual(value)
    expect(sqliteCodec.bool(row.b)).toBe(true)
    expect(sqliteCodec.bool(sqliteCodec.boolParam(false))).toBe(false)
    db.close()
  })

  it('reads unreadable SQLite JSON as null only where asked', () => {
    expect(sqliteCodec.jsonOrNull('{not json')).toBeNull()
    expect(() => sqliteCodec.json('{not json')).toThrow()
  })

  it('hands PostgreSQL jsonb through and makes its parameters storable', () => {
    expect(pgCodec.json({ a: [1] })).toEqual({ a: [1] })
    expect(pgCodec.jsonOrNull(null)).toBeNull()
    // jsonb refuses U+0000 and lone surrogates; SQLite keeps them.
    expect(JSON.parse(pgCodec.jsonParam({ 'k\u0000': 'a\u0000\ud800' }))).toEqual({
      'k\uFFFD': 'a\uFFFD\uFFFD',
    })
    expect(JSON.parse(sqliteCodec.jsonParam({ s: 'a\u0000' }))).toEqual({ s: 'a\u0000' })
    expect(pgCodec.boolParam(true)).toBe(true)
    expect(pgCodec.bool(false)).toBe(false)
  })
})
