import { run } from './action/main.js'
import { keepMemoryFlat } from './runtime/memory.js'

keepMemoryFlat()
await run()
