// Public contract: filled in by its issue.
export {};
