import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from './cn.ts';
import { Spinner } from './spinner.tsx';

/*
 * Buttons without the router: the guest payment entry has no router and imports this file, so react-router stays out
 * of its bundle. ButtonLink (a router Link styled as a button) lives in button.tsx, which re-exports these.
 */

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'light';
export type ButtonSize = 'sm' | 'md' | 'lg';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-primary-800 text-white shadow-sm hover:bg-primary-700 active:bg-primary-900 disabled:bg-primary-800/60',
  secondary:
    'border border-slate-300 bg-white text-primary-900 shadow-sm hover:border-primary-300 hover:bg-primary-50 disabled:text-slate-400',
  ghost: 'text-primary-800 hover:bg-primary-50 disabled:text-slate-400',
  danger: 'border border-red-200 bg-white text-red-700 hover:bg-red-50 disabled:text-red-300',
  light: 'bg-white text-primary-900 shadow-sm hover:bg-primary-50',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-9 px-3 text-sm gap-1.5',
  md: 'h-11 px-4 text-sm gap-2',
  lg: 'h-12 px-6 text-base gap-2',
};

export function buttonClasses(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', block = false): string {
  return cn(
    'inline-flex select-none items-center justify-center whitespace-nowrap rounded-xl font-semibold transition-colors duration-150',
    'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 focus-visible:ring-offset-2',
    'disabled:cursor-not-allowed',
    variants[variant],
    sizes[size],
    block && 'w-full',
  );
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  loading?: boolean;
  icon?: ReactNode;
}

export function Button({ variant, size, block, loading, icon, className, children, disabled, type, ...rest }: ButtonProps) {
  return (
    <button
      type={type ?? 'button'}
      className={cn(buttonClasses(variant, size, block), className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner className="-ml-0.5" /> : icon}
      {children}
    </button>
  );
}
