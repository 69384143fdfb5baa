import type { SideMeasurement } from '@contracts/measurement';
import { Camera, Maximize2, Ruler, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useMediaQuery } from '@/lib/use-media-query';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { CardImage } from './card-image';
import { MeasuredPictureLegend, MeasuredPictureMap } from './measured-picture-map';
import { PictureViewer } from './picture-viewer';

/** A side's photo, the engine's annotated picture, and the measurements behind it (absent for a side not measured). */
export type SidePictures = {
  photo: string | null;
  annotated: string | null;
  measurement?: SideMeasurement | undefined;
  /** The tilt shot's picture of the reflected light, with what it showed boxed (the front, issue 31). */
  reflectedLight?: string | null;
};

/** Below Tailwind's `sm`: the engine's labels, drawn into its picture at a fixed size, would be too small to read. */
const NARROW_SCREEN = '(max-width: 639px)';
type View = 'photo' | 'measured' | 'light';

/**
 * The card's pictures (SPEC.md §2): front and back tabs when there is a back, a click enlarges full screen at the
 * picture's own resolution with zoom and pan (./picture-viewer.tsx).
 * Beside the photo, the measured view: the engine's annotated picture with the border lines and defect boxes; on a
 * narrow screen the card flattened from its photo with numbered markers and their meaning listed under it
 * (./measured-picture-map.tsx), the engine's picture a tap away, enlarged.
 */
export function CardImages({ cardName, front, back }: { cardName: string; front: SidePictures; back: SidePictures | null }) {
  const hasMeasuredView = Boolean(front.annotated || back?.annotated);
  const [view, setView] = useState<View>(hasMeasuredView ? 'measured' : 'photo');

  const toggle = hasMeasuredView ? (
    <ToggleGroup
      type="single"
      value={view}
      onValueChange={(value) => value && setView(value as View)}
      aria-label="Picture"
      className="w-full sm:w-auto"
    >
      <ToggleGroupItem value="measured" className="flex-1">
        <Ruler aria-hidden />
        Measured
      </ToggleGroupItem>
      <ToggleGroupItem value="photo" className="flex-1">
        <Camera aria-hidden />
        Photo
      </ToggleGroupItem>
      {front.reflectedLight ? (
        <ToggleGroupItem value="light" className="flex-1">
          <Sparkles aria-hidden />
          Reflected light
        </ToggleGroupItem>
      ) : null}
    </ToggleGroup>
  ) : null;

  if (!back) {
    return (
      <div className="grid gap-3">
        {toggle}
        <EnlargeablePicture pictures={front} view={view} label={`Front of ${cardName}`} />
      </div>
    );
  }
  return (
    <Tabs defaultValue="front" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <TabsList aria-label="Side">
          <TabsTrigger value="front">Front</TabsTrigger>
          <TabsTrigger value="back">Back</TabsTrigger>
        </TabsList>
        {toggle}
      </div>
      <TabsContent value="front" className="mt-0">
        <EnlargeablePicture pictures={front} view={view} label={`Front of ${cardName}`} />
      </TabsContent>
      <TabsContent value="back" className="mt-0">
        <EnlargeablePicture pictures={back} view={view} label={`Back of ${cardName}`} />
      </TabsContent>
    </Tabs>
  );
}

function EnlargeablePicture({ pictures, view, label }: { pictures: SidePictures; view: View; label: string }) {
  const narrow = useMediaQuery(NARROW_SCREEN);
  // A side without an annotated picture (not measured) still shows its photo; one without a tilt shot, its measured one.
  const light = view === 'light' && pictures.reflectedLight ? pictures.reflectedLight : null;
  const measured = !light && view !== 'photo' && pictures.annotated !== null;
  const mapped = measured && narrow && pictures.photo !== null && pictures.measurement !== undefined;
  const src = light ?? (measured ? pictures.annotated : pictures.photo);
  const alt = light ? `${label}, reflected light of the tilt shot: scratches and dents boxed` : measured ? `${label}, measured: border lines and defect boxes` : label;
  if (!src) return <CardImage src={null} alt={label} />;
  const viewer = (
    <PictureViewer
      src={src}
      alt={alt}
      title={light ? `${label}, reflected light` : measured ? `${label}, measured` : label}
      trigger={
        <button
          type="button"
          aria-label={`Enlarge: ${alt}`}
          className="group relative block w-full cursor-zoom-in rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
        >
          {mapped ? <MeasuredPictureMap photo={pictures.photo!} side={pictures.measurement!} /> : <CardImage src={src} alt={alt} className="max-h-[70dvh]" />}
          <span className="absolute bottom-2 right-2 inline-flex items-center gap-1 rounded-md bg-card/95 px-2.5 py-1.5 text-sm font-medium shadow-sm">
            <Maximize2 className="size-4" aria-hidden />
            Enlarge
          </span>
        </button>
      }
    />
  );
  if (!mapped) return viewer;
  return (
    <div className="grid gap-3">
      {viewer}
      <MeasuredPictureLegend side={pictures.measurement!} />
    </div>
  );
}
