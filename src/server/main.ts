// Interim server entry (replaced by the data-server work).
import Fastify from 'fastify'

const app = Fastify({ logger: true })
app.get('/api/health', async () => ({ ok: true }))
await app.listen({ port: Number(process.env.PORT ?? 8080), host: process.env.HOST ?? '127.0.0.1' })
