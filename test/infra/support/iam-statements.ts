import type { SynthesizedAssay } from './assay-app.js';

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string | string[]>>;
}

export const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every Allow statement of the stack's IAM policies, with the roles the policy is attached to. */
export function allowStatements(assay: SynthesizedAssay): { roles: string[]; statement: Statement }[] {
  return Object.values(assay.template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
    (policy.Properties.PolicyDocument.Statement as Statement[])
      .filter((statement) => statement.Effect === 'Allow')
      .map((statement) => ({ roles: (policy.Properties.Roles as { Ref: string }[]).map((role) => role.Ref), statement })),
  );
}
