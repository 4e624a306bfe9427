/**
 * Why a definition from the config file (a custom, decision-tree or ensemble
 * judge) cannot be built: the field at fault, relative to the definition, the
 * problem and its fix. The caller words it with where the definition is
 * (inputErrorLine), so the three stay apart until then.
 */
export interface FieldProblem {
  readonly field: string;
  readonly problem: string;
  readonly fix: string;
}
