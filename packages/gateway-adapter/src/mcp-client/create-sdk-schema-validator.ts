import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { BoundedSchemaCompiler } from '../shared/index.js';
import { describeAjvErrors } from './read-mcp-error.js';

/**
 * The SDK's `jsonSchemaValidator` hook over the bounded compiler. The SDK compiles output schemas only through
 * this validator (never for tools we list ourselves), bounded; a schema too large to compile lets the value through.
 */
export function createSdkSchemaValidator(compiler: BoundedSchemaCompiler): jsonSchemaValidator {
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const compiled = compiler.compile(schema);
      return (input: unknown) => {
        if (!compiled.ok || compiled.validate(input)) return { valid: true, data: input as T, errorMessage: undefined };
        return { valid: false, data: undefined, errorMessage: describeAjvErrors(compiled.validate.errors) };
      };
    },
  };
}
