import { run } from './main.js'
import { limitCompilerMemory } from './memory.js'

limitCompilerMemory()
await run()
