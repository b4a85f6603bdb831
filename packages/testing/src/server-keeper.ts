/**
 * The keeper is a tiny Node process between the test process and `clickhouse-server`.
 * It owns the server and its temp dir, and it watches its stdin: when the test process
 * ends in any way (a failing test, Ctrl-C, even SIGKILL) the pipe closes, and the keeper
 * stops the server and deletes the dir. Commands arrive as lines on stdin; events leave
 * as JSON lines on stdout. It is kept as plain JavaScript so `node -e` runs it without a
 * build step.
 */
export const keeperSource = String.raw`
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const [file, argsJson, dir] = process.argv.slice(1)
const args = JSON.parse(argsJson)
let child = null
let stopping = false
const emit = (event) => { try { process.stdout.write(JSON.stringify(event) + '\n') } catch {} }
function start() {
  if (child) return
  const out = fs.openSync(dir + '/log/stdout.log', 'a')
  child = spawn(file, args, { cwd: dir, stdio: ['ignore', out, out] })
  fs.closeSync(out)
  const current = child
  current.on('error', (error) => emit({ event: 'error', message: String(error) }))
  current.on('exit', (code, signal) => {
    if (child === current) child = null
    emit({ event: 'exited', code, signal })
    if (stopping) finish()
  })
  emit({ event: 'started', pid: current.pid })
}
function finish() {
  try { fs.rmSync(dir, { recursive: true, force: true }) } catch {}
  emit({ event: 'stopped' })
  process.exit(0)
}
function kill(signal) {
  if (child) child.kill(signal)
}
function stop() {
  if (stopping) return
  stopping = true
  if (!child) return finish()
  kill('SIGTERM')
  setTimeout(() => kill('SIGKILL'), 3000).unref()
}
process.on('SIGINT', () => {})
process.on('SIGTERM', stop)
process.on('SIGHUP', stop)
let pending = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (data) => {
  pending += data
  let newline
  while ((newline = pending.indexOf('\n')) >= 0) {
    const command = pending.slice(0, newline).trim()
    pending = pending.slice(newline + 1)
    if (command === 'stop') stop()
    else if (command === 'kill') kill('SIGKILL')
    else if (command === 'start') start()
  }
})
process.stdin.on('end', stop)
process.stdin.on('error', stop)
start()
`
