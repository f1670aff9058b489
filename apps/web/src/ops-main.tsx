import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './ops/ops.css';
import { OpsApp } from './ops/ops-app.tsx';
import { installErrorReporting } from './lib/error-reporting.ts';

/**
 * The back office (`/ops`): the service's own staff, desktop-first and in English only. An entry of its own, so none
 * of it is in the user's or the guest's bundles (ops-bundle.test.ts proves it).
 */
installErrorReporting();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <OpsApp />
  </StrictMode>,
);
