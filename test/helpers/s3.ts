import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// s3rver ships no types: a real S3-compatible server (the AWS SDK's requests, signatures checked) on loopback.
// @ts-expect-error no declaration file
import S3rver from 's3rver'

export interface TestS3 {
  /** http://127.0.0.1:PORT: what SMM_S3_ENDPOINT is set to. */
  endpoint: string
  bucket: string
  /** The environment a daemon or a store reads the server from. */
  env: Record<string, string>
  stop(): Promise<void>
}

/** Starts an S3-compatible server on a free loopback port, with one empty bucket, its data in a temporary directory. */
export async function startTestS3(bucket = 'smm-media'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'smm-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
  const { port } = (await server.run()) as AddressInfo
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    bucket,
    // s3rver's default key pair: it checks signatures made with it.
    env: { SMM_S3_ENDPOINT: endpoint, SMM_S3_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
    async stop() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
