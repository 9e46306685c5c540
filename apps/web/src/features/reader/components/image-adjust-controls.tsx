import { Button, Popover, Slider } from 'antd';
import {
  BgColorsOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  RotateRightOutlined,
} from '@ant-design/icons';
import { HoverTip } from '../../../components/hover-tip.tsx';
import { PLAIN_IMAGE, TONE_RANGE, type ImageAdjust } from '../hooks/use-image-adjust.ts';

export interface ImageAdjustControlsProps {
  adjust: ImageAdjust;
  onRotate: () => void;
  onTone: (tone: Partial<Pick<ImageAdjust, 'brightness' | 'contrast'>>) => void;
  onReset: () => void;
  fullScreen: { full: boolean; supported: boolean; toggle: () => void };
}

/** Rotation, brightness and contrast for faint or turned scans, and full screen. */
export function ImageAdjustControls({
  adjust,
  onRotate,
  onTone,
  onReset,
  fullScreen,
}: ImageAdjustControlsProps) {
  const changed =
    adjust.brightness !== PLAIN_IMAGE.brightness ||
    adjust.contrast !== PLAIN_IMAGE.contrast ||
    adjust.rotation !== 0;
  const slider = (key: 'brightness' | 'contrast', label: string) => (
    <div className="reader-tone-row">
      <span aria-hidden>{label}</span>
      <Slider
        min={TONE_RANGE.min}
        max={TONE_RANGE.max}
        step={5}
        value={adjust[key]}
        onChange={(value) => onTone({ [key]: value })}
        tooltip={{ formatter: (value) => `${value}%` }}
        ariaLabelForHandle={label}
      />
      <output aria-live="off">{adjust[key]}%</output>
    </div>
  );
  return (
    <div className="reader-adjust" role="group" aria-label="图像调整">
      <HoverTip title="向右旋转 90°">
        <Button icon={<RotateRightOutlined aria-hidden />} onClick={onRotate} aria-label="旋转">
          {adjust.rotation ? <span className="reader-adjust-value">{adjust.rotation}°</span> : null}
        </Button>
      </HoverTip>
      <HoverTip title="亮度与对比度">
        <Popover
          trigger="click"
          title="亮度与对比度"
          content={
            <div className="reader-tone">
              {slider('brightness', '亮度')}
              {slider('contrast', '对比度')}
              <Button size="small" onClick={onReset} disabled={!changed}>
                复原
              </Button>
            </div>
          }
        >
          <Button icon={<BgColorsOutlined aria-hidden />} className={changed ? 'reader-adjusted' : undefined}>
            <span className="reader-tool-text">调整</span>
          </Button>
        </Popover>
      </HoverTip>
      {fullScreen.supported && (
        <HoverTip title={fullScreen.full ? '退出全屏（Esc）' : '全屏'}>
          <Button
            icon={
              fullScreen.full ? <FullscreenExitOutlined aria-hidden /> : <FullscreenOutlined aria-hidden />
            }
            onClick={fullScreen.toggle}
          >
            <span className="reader-tool-text">{fullScreen.full ? '退出全屏' : '全屏'}</span>
          </Button>
        </HoverTip>
      )}
    </div>
  );
}
