import {
  BedrockAgentRuntimeClient,
  RetrieveAndGenerateCommand,
  RetrieveCommand,
  type RetrievalResultLocation,
} from '@aws-sdk/client-bedrock-agent-runtime';
import { bedrockHttpVersion, httpMismatch, type BedrockHttpVersion } from '../judge-client/bedrock-http-version.js';
import { bedrockRequestHandler } from '../judge-client/bedrock-request-handler.js';
import { contentDocUri } from '../rows/content-ids.js';
import { awsCredentials, awsFailure } from './aws-support.js';
import type { BedrockKnowledgeBaseConnectorConfig } from './connector-configs.js';
import type { ConnectorContext } from './connector-context.js';
import type { Connector, ConnectorResult, EngineHit, EngineRequest } from './engine.js';
import { permanent } from './engine-failure.js';

/**
 * An Amazon Bedrock knowledge base: Retrieve for the ranked chunks, or
 * RetrieveAndGenerate when a model is configured, which also gives the
 * generated answer; its hits are the cited references in the order first
 * cited (the API returns no scores for them). A chunk's doc_uri is its source
 * document's location, so labels given per document match every chunk of it.
 * Like the judges' Bedrock client it speaks HTTP/1.1 to an http:// endpoint
 * (a proxy, LocalStack) and the SDK's HTTP/2 to any other
 * (bedrock-http-version.ts); a server that speaks the other version fails
 * every call, permanently, saying so.
 */
export function bedrockKnowledgeBaseConnector(config: BedrockKnowledgeBaseConnectorConfig, context: ConnectorContext): Connector {
  const version = bedrockHttpVersion(config.endpoint, undefined);
  const client = new BedrockAgentRuntimeClient({
    region: config.region,
    credentials: awsCredentials(context.env),
    // Retries belong to the engine, which knows the case's deadline.
    maxAttempts: 1,
    // HTTP/2 stays the SDK's own handler, with the SDK's own settings for this service.
    ...(version === '1.1' ? { requestHandler: bedrockRequestHandler(version) } : {}),
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
  });
  const target = `bedrock knowledge base ${config.knowledge_base_id} (${config.region})`;
  /** The server has answered (any status): it speaks the version, so a protocol error from now on is a passing fault. */
  let answered = false;
  const retrievalConfiguration = { vectorSearchConfiguration: { numberOfResults: config.number_of_results } };

  async function attempt(request: EngineRequest, signal: AbortSignal): Promise<ConnectorResult> {
    try {
      if (config.model_arn === undefined) {
        const output = await client.send(
          new RetrieveCommand({
            knowledgeBaseId: config.knowledge_base_id,
            retrievalQuery: { text: request.query },
            retrievalConfiguration,
          }),
          { abortSignal: signal },
        );
        answered = true;
        const hits = (output.retrievalResults ?? []).map((result) =>
          hitOf(result.location, result.metadata, result.content?.text, result.score),
        );
        return { ok: true, value: { hits } };
      }
      const output = await client.send(
        new RetrieveAndGenerateCommand({
          input: { text: request.query },
          retrieveAndGenerateConfiguration: {
            type: 'KNOWLEDGE_BASE',
            knowledgeBaseConfiguration: { knowledgeBaseId: config.knowledge_base_id, modelArn: config.model_arn, retrievalConfiguration },
          },
        }),
        { abortSignal: signal },
      );
      answered = true;
      const references = (output.citations ?? []).flatMap((citation) => citation.retrievedReferences ?? []);
      const hits = uniqueHits(
        references.map((reference) => hitOf(reference.location, reference.metadata, reference.content?.text, undefined)),
      );
      return { ok: true, value: { hits, ...(output.output?.text === undefined ? {} : { response: output.output.text }) } };
    } catch (error) {
      answered ||= typeof (error as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode === 'number';
      const mismatch = answered ? undefined : httpMismatch(error, version);
      if (mismatch !== undefined) return permanent(mismatchMessage(target, config.endpoint, version, mismatch.seen));
      return awsFailure(target, error);
    }
  }

  return { attempt, close: async () => client.destroy() };
}

/** What the connector spoke, what came back, and what would speak the server's version; the endpoint without user info or path. */
function mismatchMessage(target: string, endpoint: string | undefined, spoken: BedrockHttpVersion, seen: string): string {
  const at = endpoint === undefined ? '' : ` at ${new URL(endpoint).origin}`;
  if (spoken === '2') {
    return `${target}${at} did not speak HTTP/2 (${seen}): the connector speaks HTTP/2 to an https:// endpoint and HTTP/1.1 to an http:// one; give an endpoint that speaks HTTP/2 over TLS, or the server's http:// address`;
  }
  return `${target}${at} did not answer in HTTP/1.1 (${seen}): the connector speaks HTTP/1.1 to an http:// endpoint; a server that speaks only HTTP/2 needs its https:// address`;
}

function hitOf(
  location: RetrievalResultLocation | undefined,
  metadata: Record<string, unknown> | undefined,
  text: string | undefined,
  score: number | undefined,
): EngineHit {
  const sourceUri = metadata?.['x-amz-bedrock-kb-source-uri'];
  const doc_uri = locationUri(location) ?? (typeof sourceUri === 'string' ? sourceUri : undefined) ?? contentDocUri(text ?? '');
  return { doc_uri, ...(text === undefined ? {} : { content: text }), ...(score === undefined ? {} : { score }) };
}

/** The document a chunk came from, whatever kind of data source holds it. */
function locationUri(location: RetrievalResultLocation | undefined): string | undefined {
  if (location === undefined) return undefined;
  return (
    location.s3Location?.uri ??
    location.webLocation?.url ??
    location.confluenceLocation?.url ??
    location.salesforceLocation?.url ??
    location.sharePointLocation?.url ??
    location.kendraDocumentLocation?.uri ??
    location.customDocumentLocation?.id ??
    undefined
  );
}

/** A reference cited twice is one hit, kept where it was first cited. */
function uniqueHits(hits: readonly EngineHit[]): EngineHit[] {
  const seen = new Set<string>();
  return hits.filter((hit) => {
    const key = `${hit.doc_uri}\n${hit.content ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
