import { createElement, useState, type ComponentType } from 'react';
import { lazyChunk, loadChunk } from './chunks';

/**
 * A lazily loaded page (src/common/chunks.ts) that may be fetched before it is shown (App.tsx
 * preloads the opening page beside the session check). A lazy() component suspends on its first
 * render even when its chunk has already arrived, and React 19 then holds the revealed page back
 * until 300 ms after its fallback was shown. Once `load` has resolved, this renders the page at once instead.
 */
export function lazyPage<Props extends object>(load: () => Promise<{ default: ComponentType<Props> }>) {
  let loaded: ComponentType<Props> | undefined;
  const keep = (module: { default: ComponentType<Props> }) => {
    loaded = module.default;
    return module;
  };
  const preload = () => loadChunk(load).then(keep);
  const Lazy = lazyChunk(() => load().then(keep));
  const Page = (props: Props) => {
    // Chosen once per mount: switching from the lazy wrapper to the page later would remount it.
    const [Ready] = useState(() => loaded);
    return Ready ? createElement(Ready, props) : createElement(Lazy, props);
  };
  return { Page, preload };
}
