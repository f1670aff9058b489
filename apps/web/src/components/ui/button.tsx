import type { ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { buttonClasses, type ButtonSize, type ButtonVariant } from './button-base.tsx';
import { cn } from './cn.ts';

export { Button, buttonClasses, type ButtonSize, type ButtonVariant } from './button-base.tsx';

interface ButtonLinkProps extends LinkProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  icon?: ReactNode;
}

export function ButtonLink({ variant, size, block, icon, className, children, ...rest }: ButtonLinkProps) {
  return (
    <Link className={cn(buttonClasses(variant, size, block), className as string)} {...rest}>
      {icon}
      {children}
    </Link>
  );
}
