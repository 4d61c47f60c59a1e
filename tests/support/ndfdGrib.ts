/**
 * `gdal_translate -of GRIB` arguments that write a one-message GRIB2 file as NDFD's are: centre 8
 * (US-NWSTG), reference time 2026-11-27T12:00Z, discipline 0, product template 4.0 with
 * `param` = "category number" (e.g. "2 1", wind speed) at `level` = "type scale value" (e.g.
 * "103 0 10", 10 m above ground), forecast hour 1. `encoding`: GDAL's packing options.
 */
export function ndfdGribArgs(
  param: string,
  level: string,
  encoding: string[] = ['DATA_ENCODING=IEEE_FLOATING_POINT'],
): string[] {
  return [
    '-q',
    '-of',
    'GRIB',
    '-co',
    'IDS=CENTER=8(US-NWSTG) SUBCENTER=0 MASTER_TABLE=2 SIGNF_REF_TIME=1(Start_of_Forecast) REF_TIME=2026-11-27T12:00:00Z PROD_STATUS=0(Operational) TYPE=1(Forecast)',
    '-co',
    'DISCIPLINE=0',
    '-co',
    'PDS_PDTN=0',
    '-co',
    `PDS_TEMPLATE_ASSEMBLED_VALUES=${param} 2 0 0 0 0 1 1 ${level} 255 0 0`,
    ...encoding.flatMap((o) => ['-co', o]),
  ]
}
