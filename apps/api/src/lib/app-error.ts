import { ERROR_CODES, type ApiErrorBody, type ErrorCode } from '@tipcard/shared/errors/error-codes';

interface AppErrorOptions {
  /** Replaces the catalogue message, e.g. 'Wait 42 seconds'. */
  message?: string;
  validationErrors?: Record<string, string[]>;
  headers?: Record<string, string>;
}

/** The only error type services throw on purpose; the error handler turns it into the spec's error body. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly validationErrors: Record<string, string[]>;

  constructor(
    readonly code: ErrorCode,
    options: AppErrorOptions = {},
  ) {
    super(options.message ?? ERROR_CODES[code].message);
    this.statusCode = ERROR_CODES[code].status;
    this.headers = options.headers ?? {};
    this.validationErrors = options.validationErrors ?? {};
  }

  /** A 422 for one field, e.g. 'This phone is already taken' on `username`. */
  static field(code: ErrorCode, field: string, message: string = ERROR_CODES[code].message): AppError {
    return new AppError(code, { message, validationErrors: { [field]: [message] } });
  }

  toBody(): ApiErrorBody {
    return errorBody(this.code, this.message, this.validationErrors);
  }
}

export function errorBody(
  code: ErrorCode,
  message: string = ERROR_CODES[code].message,
  validationErrors: Record<string, string[]> = {},
): ApiErrorBody {
  const fieldMessages = Object.values(validationErrors).flat();
  return {
    message,
    code,
    errors: fieldMessages.length > 0 ? fieldMessages : [message],
    validation_errors: validationErrors,
  };
}
