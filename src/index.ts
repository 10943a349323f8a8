import { run } from './action/main.js'
import { dropOutputToClosedPipes } from './runtime/closed-pipes.js'
import { keepMemoryFlat } from './runtime/memory.js'

keepMemoryFlat()
dropOutputToClosedPipes([process.stdout, process.stderr])
await run()
