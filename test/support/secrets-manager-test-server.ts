import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Secrets Manager's GetSecretValue (JSON protocol), so
 * the Lambda wiring reads the judge key through the real SDK client, pointed
 * here with AWS_ENDPOINT_URL_SECRETS_MANAGER. Tests set what the next reads
 * answer: a value, or an error as Secrets Manager sends it.
 */
export type SecretAnswer = { value: string } | { error: string; message: string };

export interface SecretsManagerTestServer {
  /** http://127.0.0.1:PORT */
  readonly endpoint: string;
  /** GetSecretValue requests received so far. */
  reads(): number;
  answer(next: SecretAnswer): void;
  close(): Promise<void>;
}

export async function startSecretsManagerTestServer(first: SecretAnswer): Promise<SecretsManagerTestServer> {
  let current = first;
  let reads = 0;
  const server = createServer(async (request, response) => {
    const target = request.headers['x-amz-target'];
    const body = JSON.parse(await readBody(request)) as { SecretId?: string };
    response.setHeader('content-type', 'application/x-amz-json-1.1');
    if (target !== 'secretsmanager.GetSecretValue' || body.SecretId === undefined) {
      response.writeHead(400).end(JSON.stringify({ __type: 'InvalidRequestException', message: `Unsupported request ${String(target)}` }));
      return;
    }
    reads += 1;
    if ('error' in current) {
      response.writeHead(400).end(JSON.stringify({ __type: current.error, message: current.message }));
      return;
    }
    response.writeHead(200).end(
      JSON.stringify({
        ARN: body.SecretId,
        Name: 'assay-judge',
        SecretString: current.value,
        VersionId: `version-${reads}`,
        CreatedDate: 1_700_000_000,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    reads: () => reads,
    answer(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
