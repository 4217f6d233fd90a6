import {
  cloneElement,
  forwardRef,
  isValidElement,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type ReactElement,
  type Ref,
  type SyntheticEvent,
} from 'react';
import type { TooltipProps } from '@mui/material/Tooltip';
import getReactElementRef from '@mui/utils/getReactElementRef';
import setRef from '@mui/utils/setRef';
import useForkRef from '@mui/utils/useForkRef';
import { loadChunk } from './chunks';

/**
 * MUI's Tooltip, fetched when a tooltip is first wanted instead of with the console: it brings
 * Popper and popper.js along (~9 KB of the first download), and nothing shows a tooltip before
 * staff point at, focus or touch something. vite.config.ts puts this module where
 * @mui/material/Tooltip's component is, for every importer (react-admin's buttons and menu entries
 * too); this module alone gets the real one.
 *
 * Until then the child is rendered as MUI's Tooltip renders it while closed: the title as its
 * accessible name (or as its `title` with `describeChild`), the Tooltip's other props passed on to
 * it (the console's themes set no Tooltip defaults). Pointing at, focusing or touching it fetches
 * the real Tooltip. That one then runs beside the child instead of around it: it is given a stand-in
 * child (Given) whose props, the ones MUI's Tooltip gives its child, go on to the real child. So the
 * child keeps its element (a remount would lose its focus, a press under way, or the anchor of a
 * menu it opened), and the pointing or focusing that fetched the Tooltip is handed to it.
 */

type Real = ComponentType<TooltipProps>;
let RealTooltip: Real | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

export function loadTooltip(): Promise<void> {
  loading ??= loadChunk(() => import('@mui/material/Tooltip')).then(
    (module) => {
      RealTooltip = module.default as Real;
      for (const listener of [...listeners]) listener();
    },
    (error: unknown) => {
      // A failed download is asked again by the next pointing or focusing.
      loading = null;
      throw error;
    },
  );
  return loading;
}

const want = () => void loadTooltip().catch(() => undefined);
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const isLoaded = () => RealTooltip !== null;

/** Tooltip's own props: everything else goes to the child, as MUI's Tooltip passes it on. */
const OWN_PROPS = [
  'arrow',
  'classes',
  'components',
  'componentsProps',
  'describeChild',
  'disableFocusListener',
  'disableHoverListener',
  'disableInteractive',
  'disableTouchListener',
  'enterDelay',
  'enterNextDelay',
  'enterTouchDelay',
  'followCursor',
  'id',
  'leaveDelay',
  'leaveTouchDelay',
  'onClose',
  'onOpen',
  'open',
  'placement',
  'PopperComponent',
  'PopperProps',
  'slotProps',
  'slots',
  'title',
  'TransitionComponent',
  'TransitionProps',
  'children',
] as const;

type Props = Record<string, unknown>;
type Handler = (event: SyntheticEvent) => void;
const isHandler = (name: string, value: unknown): value is Handler => /^on[A-Z]/.test(name) && typeof value === 'function';

/** What MUI's Tooltip hands the child it is given, reported to the LazyTooltip it runs in. */
interface Report {
  (props: Props, ref: unknown): void;
}
const Given = forwardRef<unknown, { report: Report }>(function Given({ report, ...props }, ref) {
  useLayoutEffect(() => report(props, ref));
  return null;
});

/** The kinds of engagement that fetch the Tooltip, with the event of each still under way. */
type Engagement = 'onMouseOver' | 'onFocus' | 'onTouchStart';
const ENDS: Record<Engagement, string> = { onMouseOver: 'onMouseLeave', onFocus: 'onBlur', onTouchStart: 'onTouchEnd' };

const sameData = (a: Props | null, b: Props) =>
  a !== null && Object.keys(a).length === Object.keys(b).length && Object.keys(b).every((key) => Object.is(a[key], b[key]));

const Tooltip = forwardRef<unknown, TooltipProps>(function Tooltip(props, ref) {
  const loaded = useSyncExternalStore(subscribe, isLoaded, isLoaded);
  const node = useRef<HTMLElement | null>(null);
  // From the real Tooltip: its handlers and ref as they are now, its other props as state.
  const handlers = useRef<Record<string, Handler>>({});
  const tooltipRef = useRef<unknown>(null);
  const [data, setData] = useState<Props | null>(null);
  const latestData = useRef<Props | null>(null);
  const handlerNames = useRef('');
  // Pointing, focus or touch under way when the real Tooltip arrives: it gets the event.
  const engaged = useRef<Partial<Record<Engagement, SyntheticEvent>>>({});

  const report = useCallback<Report>((given, givenRef) => {
    const nextHandlers: Record<string, Handler> = {};
    const nextData: Props = {};
    for (const [name, value] of Object.entries(given)) {
      if (isHandler(name, value)) nextHandlers[name] = value;
      else nextData[name] = value;
    }
    const names = Object.keys(nextHandlers).join();
    handlers.current = nextHandlers;
    if (givenRef !== tooltipRef.current) {
      setRef(tooltipRef.current as Ref<unknown>, null);
      tooltipRef.current = givenRef;
      setRef(givenRef as Ref<unknown>, node.current);
    }
    // Handlers are called through `handlers`; a new set of them (a listener turned off) redraws too.
    if (!sameData(latestData.current, nextData) || names !== handlerNames.current) {
      latestData.current = nextData;
      handlerNames.current = names;
      setData(nextData);
    }
  }, []);
  // Once the real Tooltip has the child (and its handlers are the child's), the pointing, focus or
  // touch that fetched it and is still under way is handed to it, so it opens as it would have.
  const handedOver = data !== null;
  useEffect(() => {
    if (!handedOver) return;
    const under = engaged.current;
    engaged.current = {};
    for (const [name, event] of Object.entries(under)) handlers.current[name]?.(event);
  }, [handedOver]);
  // A controlled tooltip asked to be open is wanted at once.
  useEffect(() => {
    if (props.open && !loaded) want();
  }, [props.open, loaded]);
  const forwardToTooltip = useCallback((element: HTMLElement | null) => setRef(tooltipRef.current as Ref<unknown>, element), []);

  const children: ReactElement<Props> = isValidElement(props.children) ? props.children : <span>{props.children}</span>;
  const childRef = useForkRef(getReactElementRef(children) as Ref<HTMLElement> | null, ref as Ref<HTMLElement>, node, forwardToTooltip);
  const own = children.props;
  const other: Props = { ...props };
  for (const name of OWN_PROPS) delete other[name];
  const className = [other.className, own.className].filter(Boolean).join(' ');

  let childProps: Props;
  if (data) {
    // As MUI's Tooltip gives them: its props, the child's own over them, and for each event the
    // child's own handler, then the Tooltip's.
    childProps = { ...data, ...own, className, ref: childRef };
    for (const name of Object.keys(handlers.current)) {
      childProps[name] = (event: SyntheticEvent) => {
        (own[name] as Handler | undefined)?.(event);
        handlers.current[name]?.(event);
      };
    }
  } else {
    // As MUI's Tooltip while closed.
    const { title, describeChild = false, disableFocusListener = false, disableHoverListener = false, disableTouchListener = false } = props;
    const titleIsString = typeof title === 'string';
    childProps = {
      ...(describeChild ? { title: titleIsString && !disableHoverListener ? title : null } : { 'aria-label': titleIsString ? title : null }),
      ...other,
      ...own,
      className,
      ref: childRef,
    };
    const engagements: Engagement[] = [];
    if (!disableHoverListener) engagements.push('onMouseOver');
    if (!disableFocusListener) engagements.push('onFocus');
    if (!disableTouchListener) engagements.push('onTouchStart');
    for (const start of engagements) {
      const end = ENDS[start];
      childProps[start] = (event: SyntheticEvent) => {
        (own[start] as Handler | undefined)?.(event);
        engaged.current[start] = event;
        want();
      };
      childProps[end] = (event: SyntheticEvent) => {
        (own[end] as Handler | undefined)?.(event);
        delete engaged.current[start];
      };
    }
  }

  return (
    <>
      {cloneElement(children, childProps)}
      {loaded && RealTooltip && (
        <RealTooltip {...props}>
          <Given report={report} />
        </RealTooltip>
      )}
    </>
  );
});

export default Tooltip;
