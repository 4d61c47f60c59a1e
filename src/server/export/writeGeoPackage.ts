import Database from 'better-sqlite3'
import type { FieldDef, GeometryKind } from '../store/catalog'
import { decodeParts } from '../store/geometryCodec'
import type { OgcFeatureRow } from '../store/ogcFeatures'
import { geoPackageGeometry, geometryTypeName } from './geoPackageGeometry'

/** 'GPKG' as the SQLite application_id, and GeoPackage 1.3.0 as user_version (GeoPackage 1.3 §1.1.1). */
const APPLICATION_ID = 0x47504b47
const USER_VERSION = 10300

const WGS84_WKT =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]'

export interface GeoPackageLayer {
  /** Table name (a dataset id: [a-z][a-z0-9_]*). */
  name: string
  title: string
  description: string
  kind: GeometryKind
  fields: readonly FieldDef[]
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * Writes a GeoPackage 1.3 file with one feature table: the required gpkg_spatial_ref_sys
 * (with EPSG:4326), gpkg_contents and gpkg_geometry_columns tables, the features (fid = the
 * Emberline id, geometry as GeoPackage binary, the dataset's fields as REAL/TEXT) and the extent.
 * `batches` yields rows in chunks; returns the feature count.
 */
export async function writeGeoPackage(
  file: string,
  layer: GeoPackageLayer,
  batches: Iterable<readonly OgcFeatureRow[]> | AsyncIterable<readonly OgcFeatureRow[]>,
): Promise<number> {
  const db = new Database(file)
  try {
    db.pragma(`application_id = ${APPLICATION_ID}`)
    db.pragma(`user_version = ${USER_VERSION}`)
    db.pragma('journal_mode = OFF')
    db.pragma('synchronous = OFF')
    const geomColumn = layer.fields.some((f) => f.name === 'geom') ? 'geometry' : 'geom'
    db.exec(`
      CREATE TABLE gpkg_spatial_ref_sys (
        srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
        organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
      CREATE TABLE gpkg_contents (
        table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
        description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
        CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
      CREATE TABLE gpkg_geometry_columns (
        table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
        srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
        CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
        CONSTRAINT uk_gc_table_name UNIQUE (table_name),
        CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
        CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
    `)
    const srs = db.prepare(
      'INSERT INTO gpkg_spatial_ref_sys (srs_name, srs_id, organization, organization_coordsys_id, definition, description) VALUES (?, ?, ?, ?, ?, ?)',
    )
    srs.run(
      'Undefined cartesian SRS',
      -1,
      'NONE',
      -1,
      'undefined',
      'undefined cartesian coordinate reference system',
    )
    srs.run(
      'Undefined geographic SRS',
      0,
      'NONE',
      0,
      'undefined',
      'undefined geographic coordinate reference system',
    )
    srs.run(
      'WGS 84 geodetic',
      4326,
      'EPSG',
      4326,
      WGS84_WKT,
      'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid',
    )
    const columns = layer.fields.map((f) => `${quote(f.name)} ${f.type === 'number' ? 'REAL' : 'TEXT'}`)
    const names = `fid, ${quote(geomColumn)}${layer.fields.map((f) => ', ' + quote(f.name)).join('')}`
    // Rows go to a temporary table first: the feature table's declared geometry type (single,
    // multi or GEOMETRY for a mix) is known only once every row has been seen.
    db.exec(
      `CREATE TEMP TABLE staging (fid INTEGER PRIMARY KEY, ${quote(geomColumn)} BLOB${columns.map((c) => ', ' + c).join('')})`,
    )
    const insert = db.prepare(
      `INSERT INTO staging (${names}) VALUES (?, ?${layer.fields.map(() => ', ?').join('')})`,
    )
    let count = 0
    let anyMulti = false
    let anySingle = false
    const ext = [Infinity, Infinity, -Infinity, -Infinity]
    const write = db.transaction((rows: readonly OgcFeatureRow[]) => {
      for (const row of rows) {
        const parts = row.geom.byteLength > 0 ? decodeParts(row.geom) : []
        if (parts.length === 0) {
          // A record kept without geometry (a zone-only alert): a NULL geometry, outside the extent.
          insert.run(row.id, null, ...layer.fields.map((f) => row.properties[f.name] ?? null))
          count++
          continue
        }
        const g = geoPackageGeometry(parts, layer.kind, 4326)
        if (g.multi) anyMulti = true
        else anySingle = true
        ext[0] = Math.min(ext[0] as number, g.envelope[0])
        ext[1] = Math.min(ext[1] as number, g.envelope[1])
        ext[2] = Math.max(ext[2] as number, g.envelope[2])
        ext[3] = Math.max(ext[3] as number, g.envelope[3])
        insert.run(row.id, g.blob, ...layer.fields.map((f) => row.properties[f.name] ?? null))
        count++
      }
    })
    for await (const rows of batches) write(rows)
    // Single or multi throughout gives that type; a mix is declared as GEOMETRY.
    const typeName = anyMulti && anySingle ? 'GEOMETRY' : geometryTypeName(layer.kind, anyMulti)
    const table = quote(layer.name)
    db.exec(
      `CREATE TABLE ${table} (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, ${quote(geomColumn)} ${typeName}${columns.map((c) => ', ' + c).join('')})`,
    )
    db.exec(`INSERT INTO ${table} (${names}) SELECT ${names} FROM staging ORDER BY fid; DROP TABLE staging`)
    const bounded = Number.isFinite(ext[0])
    db.prepare(
      'INSERT INTO gpkg_contents (table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, srs_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
      layer.name,
      'features',
      layer.title,
      layer.description,
      bounded ? ext[0] : null,
      bounded ? ext[1] : null,
      bounded ? ext[2] : null,
      bounded ? ext[3] : null,
      4326,
    )
    db.prepare(
      'INSERT INTO gpkg_geometry_columns (table_name, column_name, geometry_type_name, srs_id, z, m) VALUES (?, ?, ?, ?, 0, 0)',
    ).run(layer.name, geomColumn, typeName, 4326)
    return count
  } finally {
    db.close()
  }
}
