export async function main(argv: readonly string[]): Promise<number> {
  console.log('hello', argv.length);
  return 0;
}
