import { run } from './action/main.js'
import { dropOutputToClosedPipes } from './runtime/closed-pipes.js'
import { keepMemoryFlat } from './runtime/memory.js'

keepMemoryFlat()
dropOutputToClosedPipes([process.stdout, process.stderr])
await run()
// Done once the outputs are written: a name lookup the resolver never answered (it cannot be cancelled) or a
// connection still being torn down must not hold the job (Node would wait for them).
process.exit()
