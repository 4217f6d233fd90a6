/**
 * Sidebar slot for the customer search widget (spec §2 "Customer search widget").
 * Renders nothing until that widget is built; the Menu already reserves its place.
 */
export const SearchSlot = () => null;
