/**
 * Records requests (paths) for bench:server: on the peer's data (`peerFields`) its filter mix
 * (town + risk_score or occupancy + year_built, offset 5000); on the demo data PSPS filters and
 * building pages. Seeded, so every run asks the same.
 */
export function recordsUrls(peerFields: boolean, n: number): string[] {
  const q = (f: object[]) => f.map((x) => `filters=${encodeURIComponent(JSON.stringify(x))}`).join('&')
  const out: string[] = []
  let r = 7
  const rand = () => (r = (r * 16807) % 2147483647) / 2147483647
  for (let i = 0; i < n; i++) {
    if (peerFields) {
      const towns = [
        'Albuquerque',
        'Las Cruces',
        'Rio Rancho',
        'Santa Fe',
        'Roswell',
        'Farmington',
        'Hobbs',
        'Clovis',
        'Carlsbad',
        'Alamogordo',
        'Unincorporated',
      ]
      const f =
        rand() < 0.5
          ? [
              { field: 'town', value: towns[Math.floor(rand() * towns.length)] },
              { field: 'risk_score', value: [0, 20, 40, 60][Math.floor(rand() * 4)], type: 'gt' },
            ]
          : [
              {
                field: 'occupancy',
                value: ['residential', 'commercial', 'industrial'][Math.floor(rand() * 3)],
              },
              { field: 'year_built', value: [1950, 1980, 2000][Math.floor(rand() * 3)], type: 'gt' },
            ]
      out.push(`/api/data/buildings/records?${q(f)}&limit=100&offset=5000`)
    } else {
      const f =
        rand() < 0.5
          ? [{ field: 'customers_impacted', value: Math.floor(rand() * 1000), type: 'gt' }]
          : [{ field: 'spread_potential', value: 'high' }]
      out.push(`/api/data/public_safety_power_shutoff/records?${q(f)}&limit=100`)
      out.push(`/api/data/buildings/records?limit=100&offset=${Math.floor(rand() * 1000) * 100}`)
    }
  }
  return out.slice(0, n)
}
