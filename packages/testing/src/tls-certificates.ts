import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** A throwaway certificate authority and a server certificate it signed, as PEM files. */
export interface TestCertificates {
  /** The CA certificate (PEM text) a client must trust. */
  readonly ca: string
  readonly caFile: string
  readonly certificateFile: string
  readonly privateKeyFile: string
  readonly dhParamsFile: string
}

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, { cwd })
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? ''
    throw new Error(`openssl ${args[0]} failed: ${stderr.trim() || String(error)}`)
  }
}

/**
 * Makes a self-signed CA and a server certificate for `localhost` / `127.0.0.1` in `dir`,
 * with the `openssl` command line (Node has no API that issues certificates). DH
 * parameters use `-dsaparam`, which takes a fraction of a second instead of minutes.
 */
export async function makeTestCertificates(dir: string): Promise<TestCertificates> {
  const file = (name: string) => join(dir, name)
  await openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=clickwire test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
    ],
    dir,
  )
  await openssl(
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
    ],
    dir,
  )
  await writeFile(
    file('server.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  )
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      'server.ext',
      '-out',
      'server.crt',
    ],
    dir,
  )
  await openssl(['dhparam', '-dsaparam', '-out', 'dhparam.pem', '2048'], dir)
  return {
    ca: await readFile(file('ca.crt'), 'utf8'),
    caFile: file('ca.crt'),
    certificateFile: file('server.crt'),
    privateKeyFile: file('server.key'),
    dhParamsFile: file('dhparam.pem'),
  }
}
