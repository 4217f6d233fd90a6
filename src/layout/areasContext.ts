import { createContext, useContext } from 'react';
import type { ConsoleArea } from './area';

/**
 * The console's areas, in sidebar order, as App.tsx reads them from src/areas.ts and hands them
 * down: the layout (the sidebar's entries) takes them from here instead of importing the registry,
 * which imports every area, each of which imports the layout.
 */
export const ConsoleAreasContext = createContext<readonly ConsoleArea[]>([]);

export const useConsoleAreas = () => useContext(ConsoleAreasContext);
