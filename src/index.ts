import { run } from './main.js'
import { keepMemoryFlat } from './memory.js'

keepMemoryFlat()
await run()
