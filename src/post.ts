import { runPost } from './action/post.js'
import { dropOutputToClosedPipes } from './runtime/closed-pipes.js'

dropOutputToClosedPipes([process.stdout, process.stderr])
await runPost()
