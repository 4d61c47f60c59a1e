-- PostGIS for the datasets' geometry columns (a no-op where the operator created it already).
CREATE EXTENSION IF NOT EXISTS postgis;
