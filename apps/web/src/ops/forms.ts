import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { errorText, OpsApiError } from './ops-api.ts';

/**
 * A refused submission on the form: the API's field errors on the fields it names, anything else (a wrong code, a
 * conflict, no connection) as the form's own error, `errors.root.server`.
 */
export function showServerErrors<T extends FieldValues>(
  error: unknown,
  { setError, getValues }: Pick<UseFormReturn<T>, 'setError' | 'getValues'>,
): void {
  const fields = Object.keys(getValues());
  const onFields =
    error instanceof OpsApiError
      ? Object.entries(error.fields).filter(([field, messages]) => fields.includes(field) && messages.length > 0)
      : [];
  onFields.forEach(([field, messages], index) =>
    setError(field as Path<T>, { type: 'server', message: messages[0] }, { shouldFocus: index === 0 }),
  );
  if (onFields.length === 0) setError('root.server', { type: 'server', message: errorText(error) });
}
