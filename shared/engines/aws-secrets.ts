/** The AWS secrets of the injected environment, to keep them out of error messages. */
export function awsSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  return [env.AWS_SECRET_ACCESS_KEY, env.AWS_SESSION_TOKEN].filter((value): value is string => value !== undefined);
}
