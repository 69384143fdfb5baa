/** SPEC.md's userId of an owner: the user's id, or null while a guest owns the thing. */
export const userIdOf = (owner: string): string | null => (owner.startsWith('user:') ? owner.slice('user:'.length) : null);
