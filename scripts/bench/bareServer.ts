// The platform's floor for bench:server: a bare node:http server (no framework, no session check,
// no security headers) answering every path with the same small body. Replaying the points list
// against it with the same client and protocol shows what any Node server can reach on this
// machine, apart from the tile engine and our HTTP path. Prints `listening <port>`.
import http from 'node:http'

const body = Buffer.alloc(Number(process.env.BODY_BYTES ?? 2048), 0x1a)
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/vnd.mapbox-vector-tile', 'content-length': body.length })
  res.end(body)
})
server.listen(0, '127.0.0.1', () => {
  const a = server.address()
  console.log(`listening ${typeof a === 'object' && a ? a.port : 0}`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
